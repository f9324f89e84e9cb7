"""Random-playout throughput of every registered game, through the engine API
and through the Gymnasium env, plus the Odoku oracle's time per move.

    python benchmarks/bench_engines.py [--seconds 2] [--games odoku nex] [--size 6]
        [--param max_turns=20] [--mcts 400] [--playout-only] [--cpu-time]

Prints a table; nothing here is a test. Each row plays uniformly random games
for about ``--seconds`` seconds of wall time (``--cpu-time``: of this process's CPU
time, what the code costs on a machine busy with other jobs, whatever share of a
core the process gets; every rate and search time then counts it), after one
untimed warm-up game (numba kernels compile on first use). A neutral game's row also gives its time
per turn relative to its base game (``per-turn cost vs hex``), with the base game
timed again (the same way, for as long) right after that row: on a shared
machine the load changes from one minute to the next, and a ratio is only
sound between two rates measured side by side.

The ``playout`` rows time ``game.random_playout``, the game's own playout (for most games one
numba kernel per game: the same games as the engine loop for the same generator; the tests check it), and
give its games/s over the ``engine`` row's just above (``playout/engine``). ``--size``
plays every game given at that board size (its ``size`` parameter) instead of its
default; ``--param KEY=VALUE`` (repeatable) sets any other parameter of every game given.
``--mcts N`` adds, per game, plain MCTS's seconds per move (``mcts:N``, one
random rollout a simulation) with the game's ``random_playout`` and with the
engine loop in its place, alternating position by position along a random game
(``--playout-only``: the former alone).

With the optional extra ``open-spiel`` installed, OpenSpiel's ``hex`` (11x11),
``othello`` and ``y`` (13 a side) are timed in the same run with the engine loop (legal actions,
one numpy draw, apply), and our/their move rates are printed for both our rows.
"""

from __future__ import annotations

import argparse
import ast
import time

import gymnasium as gym
import numpy as np

from agents.evaluation.figure_records import SpeedRecords, add_record_option
from envs import GAMES, Game, make_game

BASE_GAME = {"nex": "hex", "neumoku": "gomoku", "neuversi": "reversi", "adneuversi": "reversi", "neuy": "y"}
OPEN_SPIEL = {"hex": ("hex", {"board_size": 11}), "reversi": ("othello", {}), "y": ("y", {"board_size": 13})}


def engine_playouts(game, seconds: float, rng: np.random.Generator, clock=time.perf_counter) -> dict[str, float]:
    """Random games step by step through the engine API (``Game.random_playout``'s
    generic loop, never a game's fast override): games/s, decisions/s and turns/s."""
    return _playouts(lambda state: Game.random_playout(game, state, rng), game, seconds, rng, clock)


def kernel_playouts(game, seconds: float, rng: np.random.Generator, clock=time.perf_counter) -> dict[str, float]:
    """Random games through the game's own ``random_playout`` (numba kernels, Odoku's fill)."""
    game.random_playout(game.initial_state(), rng)  # compile
    return _playouts(lambda state: game.random_playout(state, rng), game, seconds, rng, clock)


def _playouts(playout, game, seconds: float, rng: np.random.Generator, clock) -> dict[str, float]:
    _warm_up(game, rng)
    games = decisions = turns = 0
    start = clock()
    while clock() - start < seconds:
        _, game_decisions, game_turns = playout(game.initial_state())
        decisions += game_decisions
        turns += game_turns
        games += 1
    elapsed = clock() - start
    return {"games/s": games / elapsed, "decisions/s": decisions / elapsed, "turns/s": turns / elapsed}


def _warm_up(game, rng: np.random.Generator) -> None:
    """One game first, so that numba compiles outside the timing."""
    Game.random_playout(game, game.initial_state(), rng)


def open_spiel_playouts(
    name: str, params: dict, seconds: float, rng: np.random.Generator, clock=time.perf_counter
) -> dict[str, float]:
    """The engine loop over an OpenSpiel game (its C++ core through pyspiel)."""
    import pyspiel

    game = pyspiel.load_game(name, params)
    games = moves = 0
    start = clock()
    while clock() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.integers(len(actions)))])
            moves += 1
        games += 1
    elapsed = clock() - start
    return {"games/s": games / elapsed, "decisions/s": moves / elapsed, "turns/s": moves / elapsed}


def env_playouts(env_id: str, seconds: float, seed: int, params: dict, clock=time.perf_counter) -> dict[str, float]:
    """Random games through ``gymnasium.make`` in two-player mode (mask-sampled actions)."""
    env = gym.make(env_id, **params)
    rng = np.random.default_rng(seed)
    games = steps = 0
    start = clock()
    observation, _ = env.reset(seed=seed)
    while clock() - start < seconds:
        legal = np.flatnonzero(observation["action_mask"])
        observation, _, terminated, _, _ = env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
        if terminated:
            games += 1
            observation, _ = env.reset()
    elapsed = clock() - start
    return {"games/s": games / elapsed, "decisions/s": steps / elapsed}


def oracle_time_per_move(games: int, rng: np.random.Generator) -> float:
    """Mean seconds per Odoku oracle move over ``games`` oracle-vs-oracle games."""
    from agents.players.registry import make_player

    game = make_game("odoku")
    oracle = make_player("oracle", game)
    moves, elapsed = 0, 0.0
    for _ in range(games):
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.is_chance(state):
                game.apply(state, int(rng.integers(2)))
                continue
            start = time.perf_counter()
            action = oracle.act(state, rng)
            elapsed += time.perf_counter() - start
            game.apply(state, action)
            moves += 1
    return elapsed / moves


def mcts_seconds_per_move(
    name: str, params: dict, simulations: int, moves: int, seed: int, engine_loop: bool = True, clock=time.perf_counter
) -> tuple[float, float | None]:
    """Mean seconds per ``mcts:N`` move (kernel playouts, engine-loop playouts: None without
    ``engine_loop``) over ``moves`` positions along one random game, both searching each
    position in turn from the same seed."""
    from agents.players.registry import make_player

    fast, loop = make_game(name, **params), make_game(name, **params)
    loop.random_playout = lambda state, rng: Game.random_playout(loop, state, rng)  # the engine loop
    players = [make_player(f"mcts:{simulations}", game) for game in ((fast, loop) if engine_loop else (fast,))]
    rng, state, positions = np.random.default_rng(seed), fast.initial_state(), []
    while not fast.is_terminal(state):
        if fast.is_chance(state):  # Odoku's coin, Sudoku Moyo's puzzle: nothing to search
            fast.apply(state, fast.sample_chance(state, rng))
            continue
        positions.append(state.copy())
        legal = fast.legal_actions(state)
        fast.apply(state, legal[int(rng.integers(len(legal)))])
    players[0].act(positions[0], np.random.default_rng(seed))  # compile
    elapsed = [0.0, 0.0]
    for k in np.linspace(0, len(positions) - 1, moves).astype(int):
        for which, player in enumerate(players):
            start = clock()
            player.act(positions[k], np.random.default_rng(seed + int(k)))
            elapsed[which] += clock() - start
    return elapsed[0] / moves, elapsed[1] / moves if engine_loop else None


def parse_param(text: str) -> tuple[str, object]:
    """``KEY=VALUE`` as (key, value): a Python literal where it reads as one (``20``), else the text."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise SystemExit(f"--param must be KEY=VALUE, got {text!r}")
    try:
        return key, ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return key, value


def rate(games_per_second: float) -> str:
    """A games/s column: one decimal, three below 1 (Hop Chess's engine plays a game in seconds)."""
    return f"{games_per_second:>12.{1 if games_per_second >= 1 else 3}f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="wall time per row")
    parser.add_argument("--games", nargs="*", default=sorted(GAMES), help="registry names")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=None, help="every game's size parameter (default: its own)")
    parser.add_argument(
        "--param", action="append", default=[], metavar="KEY=VALUE", help="a parameter of every game (repeatable)"
    )
    parser.add_argument("--mcts", type=int, default=0, help="also time mcts:N per move (0: not)")
    parser.add_argument("--moves", type=int, default=6, help="positions for --mcts")
    parser.add_argument(
        "--cpu-time", action="store_true", help="time by this process's CPU seconds, not wall time (a busy machine)"
    )
    add_record_option(parser)
    parser.add_argument(
        "--playout-only",
        action="store_true",
        help="--mcts without the engine loop's search (minutes a move: Hop Chess)",
    )
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    extra = dict(parse_param(text) for text in args.param)
    clock = time.process_time if args.cpu_time else time.perf_counter
    records = SpeedRecords(args.record)
    per_second = "games/s (CPU time)" if args.cpu_time else "games/s"

    try:
        import pyspiel  # noqa: F401  (the optional extra open-spiel)

        has_open_spiel = True
    except ImportError:
        has_open_spiel = False

    def label_of(name: str) -> str:
        return " ".join([name] + ([] if args.size is None else [str(args.size)]) + args.param)

    width = max(16, 1 + max((len(label_of(name)) for name in args.games), default=0))  # a space after the longest label
    print(f"{'game':<{width}}{'via':<10}{'games/s':>12}{'decisions/s':>14}{'turns/s':>12}")

    def show(name, via, row, shown, base_row, engine_row=None) -> None:  # label: the game's, as records name it
        notes = []
        path = {"engine": "engine loop", "playout": "playout kernel"}[via]
        if engine_row is not None:
            notes.append(f"playout/engine {row['games/s'] / engine_row['games/s']:.1f}x")
            records.add(
                f"{label} playout kernel", per_second, f"{label} engine loop", row["games/s"] / engine_row["games/s"]
            )
        if base_row is not None:
            notes.append(f"per-turn cost vs {BASE_GAME[name]}: {base_row['turns/s'] / row['turns/s']:.2f}x")
            base = label.replace(name, BASE_GAME[name], 1)
            records.add(
                f"{label} {path}", "cost per whole turn", f"{base} {path}", base_row["turns/s"] / row["turns/s"]
            )
        note = f"  ({'; '.join(notes)})" if notes else ""
        print(
            f"{shown:<{width}}{via:<10}{rate(row['games/s'])}{row['decisions/s']:>14.0f}{row['turns/s']:>12.0f}{note}"
        )

    for name in sorted(args.games, key=lambda name: (name in BASE_GAME, name)):  # base games first
        params = ({} if args.size is None else {"size": args.size}) | extra
        game = make_game(name, **params)
        base = make_game(BASE_GAME[name], **params) if name in BASE_GAME else None
        label = label_of(name)
        row = engine_playouts(game, args.seconds, rng, clock)
        show(name, "engine", row, label, None if base is None else engine_playouts(base, args.seconds, rng, clock))
        kernel = kernel_playouts(game, args.seconds, rng, clock)
        base_kernel = None if base is None else kernel_playouts(base, args.seconds, rng, clock)
        show(name, "playout", kernel, "", base_kernel, row)
        if has_open_spiel and name in OPEN_SPIEL:
            spiel_name, spiel_params = OPEN_SPIEL[name]  # same board as our default size
            theirs = open_spiel_playouts(spiel_name, spiel_params, args.seconds, rng, clock)
            ratios = f"engine {row['decisions/s'] / theirs['decisions/s']:.2f}x"
            ratios += f", playout {kernel['decisions/s'] / theirs['decisions/s']:.2f}x"
            for path, ours in (("engine loop", row), ("playout kernel", kernel)):
                records.add(
                    f"{label} {path}",
                    "decisions/s",
                    f"OpenSpiel pyspiel {spiel_name} loop",
                    ours["decisions/s"] / theirs["decisions/s"],
                )
            print(
                f"{'':<{width}}{'openspiel':<10}{rate(theirs['games/s'])}{theirs['decisions/s']:>14.0f}"
                f"{theirs['turns/s']:>12.0f}  (ours/theirs: {ratios}; pyspiel {spiel_name})"
            )
        env_row = env_playouts(GAMES[name][0], args.seconds, args.seed, params, clock)
        ratio = env_row["decisions/s"] / row["decisions/s"]
        records.add(f"{label} Gymnasium env", "decisions/s", f"{label} engine loop", ratio)
        print(
            f"{'':<{width}}{'env':<10}{rate(env_row['games/s'])}{env_row['decisions/s']:>14.0f}"
            f"{'':>12}  (env/engine {ratio:.2f}x)"
        )
        if args.mcts:
            fast, loop = mcts_seconds_per_move(
                name, params, args.mcts, args.moves, args.seed, not args.playout_only, clock
            )
            versus = "" if loop is None else f", engine loop {loop * 1e3:.1f} ({loop / fast:.1f}x)"
            if loop is not None:
                records.add(
                    f"{label} mcts:{args.mcts} with kernel playouts",
                    "time per move (engine / kernel)",
                    f"mcts:{args.mcts} with engine-loop playouts",
                    loop / fast,
                    note=f"{fast * 1e3:.1f} vs {loop * 1e3:.1f} ms over {args.moves} positions",
                )
            print(
                f"{'':<{width}}{'mcts':<10}  mcts:{args.mcts} ms/move over {args.moves} positions: playout {fast * 1e3:.1f}{versus}"
            )
    if "odoku" in args.games:
        per_move = oracle_time_per_move(200, rng)
        print(f"\nOdoku oracle: {per_move * 1e6:.1f} us per move (200 oracle-vs-oracle games)")
    records.write()


if __name__ == "__main__":
    main()
