"""Steps per second of the batched vector env (``envs.make_vec``) at several batch sizes,
beside the per-game Gymnasium env and, when the ``bench`` extra is installed, Pgx (JAX)
Hex and Othello at the same batch sizes, all in one run.

    python benchmarks/bench_vector.py [--seconds 2] [--batches 1 64 1024] [--games hex reversi nex odoku sudoku_moyo]

Every row plays uniformly random legal actions in two-player mode (one step = one action of
the seat to play, as a Pgx step) for about ``--seconds`` of wall time after an untimed
warm-up (numba and XLA compile on first use), with games restarting as they end
(next-step autoreset here, ``pgx.experimental.auto_reset`` there). Choosing the actions
is timed too: ``envs.vector.actions.random_legal`` over the returned masks here,
``pgx.experimental.act_randomly`` inside the jitted step there. ``steps/s`` counts
single-game steps (N per batch step). The ratio columns compare rows of this run: the
vector env over the Gymnasium env (``gym.make``, one game, one Python step per action)
and over Pgx at the same N. Nothing here is a test; on a shared machine only ratios
from one run mean anything.
"""

from __future__ import annotations

import argparse
import importlib.util
import platform
import time

import gymnasium as gym

import envs
from agents.evaluation.figure_records import SpeedRecords, add_record_option
from envs.vector.actions import random_legal

GAMES = {  # registry name -> (Gymnasium id, label, Pgx id or None); default sizes
    "hex": ("Hex-v0", "Hex 11", "hex"),
    "reversi": ("Reversi-v0", "Reversi 8", "othello"),
    "nex": ("Nex-v0", "Nex 11", None),
    "odoku": ("Odoku-v0", "Odoku", None),
    "sudoku_moyo": ("SudokuMoyo-v0", "Sudoku Moyo", None),
}


def vector_steps(env_id: str, num_envs: int, seconds: float, seed: int) -> float:
    """Single-game steps/s of ``envs.make_vec(env_id, num_envs)`` (copies of the outputs included)."""
    vec = envs.make_vec(env_id, num_envs=num_envs)
    obs, _ = vec.reset(seed=seed)
    stream = seed
    for _ in range(20):  # warm-up: compile, and leave the opening
        actions, stream = random_legal(obs["action_mask"], stream)
        obs, *_ = vec.step(actions)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions, stream = random_legal(obs["action_mask"], stream)
        obs, *_ = vec.step(actions)
        steps += num_envs
    return steps / (time.perf_counter() - start)


def gym_steps(env_id: str, seconds: float, seed: int) -> float:
    """Steps/s of one ``gymnasium.make(env_id)`` game in two-player mode."""
    env = gym.make(env_id)
    obs, _ = env.reset(seed=seed)
    stream, steps, start = seed, -20, 0.0  # 20 untimed warm-up steps
    while steps < 0 or time.perf_counter() - start < seconds:
        actions, stream = random_legal(obs["action_mask"][None], stream)
        obs, _, terminated, _, _ = env.step(int(actions[0]))
        steps += 1
        if terminated:
            obs, _ = env.reset()
        if steps == 0:
            start = time.perf_counter()
    return steps / (time.perf_counter() - start)


def pgx_steps(pgx_id: str, num_envs: int, seconds: float, seed: int) -> float:
    """Single-game steps/s of Pgx ``pgx_id``: one jitted call per batch step that picks random
    legal actions and steps all ``num_envs`` games with auto-reset."""
    import jax
    import pgx
    from pgx.experimental import act_randomly, auto_reset

    env = pgx.make(pgx_id)
    step = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def batch_step(state, key):
        key, pick, keys = jax.random.split(key, 3)
        action = act_randomly(pick, state.legal_action_mask)
        return step(state, action, jax.random.split(keys, num_envs)), key

    key = jax.random.PRNGKey(seed)
    key, init_key = jax.random.split(key)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(init_key, num_envs))
    for _ in range(20):
        state, key = batch_step(state, key)
    jax.block_until_ready(state)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, key = batch_step(state, key)
        jax.block_until_ready(state.legal_action_mask)
        steps += num_envs
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="wall time per row")
    parser.add_argument("--batches", type=int, nargs="*", default=[1, 64, 1024], help="batch sizes N")
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-pgx", action="store_true", help="skip Pgx even when installed")
    add_record_option(parser)
    args = parser.parse_args()
    records = SpeedRecords(args.record)
    has_pgx = not args.no_pgx and importlib.util.find_spec("pgx") is not None  # the optional extra bench

    print(f"python {platform.python_version()}, {platform.machine()}, pgx {'on' if has_pgx else 'off'}")
    print("| game | N | vector env steps/s | gym env steps/s | vector / gym | Pgx steps/s | vector / Pgx |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in args.games:
        env_id, label, pgx_id = GAMES[name]
        single = gym_steps(env_id, args.seconds, args.seed)
        for num_envs in args.batches:
            ours = vector_steps(env_id, num_envs, args.seconds, args.seed)
            theirs = pgx_steps(pgx_id, num_envs, args.seconds, args.seed) if has_pgx and pgx_id else None
            pgx_cells = f"{theirs:,.0f} | {ours / theirs:.2f}x" if theirs else "- | -"
            records.add(f"{label} vector env, N = {num_envs:,}", "steps/s", "one Gymnasium env", ours / single)
            if theirs:
                records.add(
                    f"{label} vector env, N = {num_envs:,}", "steps/s", f"Pgx at N = {num_envs:,}", ours / theirs
                )
            print(
                f"| {label} | {num_envs} | {ours:,.0f} | {single:,.0f} | {ours / single:.1f}x | {pgx_cells} |",
                flush=True,
            )
    records.write()


if __name__ == "__main__":
    main()
