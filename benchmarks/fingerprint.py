"""Behaviour fingerprint of a checkout, to pin a refactor: the same lines before and after.

    python benchmarks/fingerprint.py [--games 30] [--vec-steps 300] > before.txt
    (change the code)
    python benchmarks/fingerprint.py > after.txt && diff before.txt after.txt

For every registered game at two sizes (one for the fixed-size games) it hashes
seeded random games through the engine (every legal mask, observation, action
and the returns), ``random_playout`` from the start (the compiled playouts), and
``envs.make_vec`` stepping eight games against a random opponent (observations,
masks, rewards). Each line is ``game{size} engine=HASH playout=HASH vec=HASH``, so
a diff names the layer that changed. Nothing here is a test: it compares two
checkouts, which no test can see at once.
"""

from __future__ import annotations

import argparse
import hashlib

import numpy as np

import envs
from envs import GAMES, make_game


def sizes(name: str) -> list[dict]:
    """Two sizes for a game with a ``size`` argument (the two smallest it accepts of 5, 7, 9...;
    6, 8... for an even side, Reversi's), its defaults for one without."""
    if "size" not in make_game(name).info.params:
        return [{}]
    accepted = []
    for size in range(6 if "versi" in name else 5, 40, 2):
        try:
            make_game(name, size=size)
        except ValueError:
            continue
        accepted.append({"size": size})
        if len(accepted) == 2:
            return accepted
    raise SystemExit(f"{name}: no two sizes accepted")


def engine_hash(game, games: int) -> str:
    digest = hashlib.sha256()
    for seed in range(games):
        rng, state = np.random.default_rng(seed), game.initial_state()
        while not game.is_terminal(state):
            if game.is_chance(state):
                action = game.sample_chance(state, rng)
            else:
                mask = game.legal_mask(state)
                digest.update(np.asarray(mask, np.int8).tobytes())
                digest.update(game.observe(state).tobytes())
                legal = np.flatnonzero(mask)
                action = int(legal[rng.integers(len(legal))])
            digest.update(str(int(action)).encode())
            game.apply(state, action)
        digest.update(repr(game.returns(state)).encode())
    return digest.hexdigest()[:16]


def playout_hash(game, games: int) -> str:
    digest = hashlib.sha256()
    for seed in range(games):
        state, rng = game.initial_state(), np.random.default_rng(1000 + seed)
        while game.is_chance(state):  # a drawn setup first (Sudoku Moyo's puzzle)
            game.apply(state, game.sample_chance(state, rng))
        digest.update(repr(game.random_playout(state, rng)).encode())
    return digest.hexdigest()[:16]


def vec_hash(name: str, kwargs: dict, steps: int) -> str:
    if steps == 0:
        return "skipped"
    vec = envs.make_vec(GAMES[name][0], num_envs=8, opponent="random", **kwargs)
    obs, _ = vec.reset(seed=3)
    rng, digest = np.random.default_rng(0), hashlib.sha256()
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(mask)) if mask.any() else 0 for mask in obs["action_mask"]])
        obs, rewards, _, _, _ = vec.step(actions)
        for array in (obs["observation"], obs["action_mask"], rewards):
            digest.update(array.tobytes())
    vec.close()
    return digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="seeded random games per game and size")
    parser.add_argument("--vec-steps", type=int, default=300, help="make_vec steps per game and size; 0: skip make_vec")
    parser.add_argument("--only", nargs="*", default=sorted(GAMES), help="registry names (default: all)")
    args = parser.parse_args()
    for name in args.only:
        for kwargs in sizes(name):
            game = make_game(name, **kwargs)
            print(
                f"{name}{kwargs}",
                f"engine={engine_hash(game, args.games)}",
                f"playout={playout_hash(game, args.games)}",
                f"vec={vec_hash(name, kwargs, args.vec_steps)}",
                flush=True,
            )


if __name__ == "__main__":
    main()
