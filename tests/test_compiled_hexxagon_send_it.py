"""Hexxagon's and Send It's compiled rules (``envs.games.hexxagon.kernels``,
``envs.games.send_it.kernels`` over ``envs.schedule.rows``) against the engine, and the
engine's move generation (the same kernels) against a plain reading of the rules here: rows
round-trip, the same legal actions, moves, seats, returns and planes along whole random games
(a jump begun, a turn begun, the end), and the search driver gives the reference search's
results on fixed seeds."""

from __future__ import annotations

import numpy as np
import pytest
from reference_search import ReferenceMCTS
from row_kernels import apply_to as apply_row
from row_kernels import returns_of as returns_row
from row_kernels import to_play_of as to_play_row
from test_search_driver import PlanesNetwork, assert_same, rows_only

from agents.search.estimators import RolloutEstimator, UniformEstimator
from agents.search.mcts import MCTS, SearchConfig
from agents.search.mcts import driver as compiled_driver
from envs import compiled as rules
from envs import make_game
from envs.core import TERMINAL
from envs.schedule.moves import EMPTY, PIECE
from envs.stones.hexagon import geometry

CONFIGS = [
    ("hexxagon", {"size": 3}),
    ("hexxagon", {"size": 4, "schedule": "134"}),
    ("hexxagon", {"size": 4, "schedule": "12", "restricted": False, "move_limit": 30}),
    ("hexxagon_1344", {"size": 4}),
    ("send_it", {"size": 5}),
    ("send_it", {"size": 6, "restricted": False}),
    ("send_it", {"size": 5, "schedule": "2", "move_limit": 20}),
]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in params.items())}" for name, params in CONFIGS]


def hexxagon_options(game, state) -> list[int]:
    """Clones (empty cells next to a stone that may move) and stones with an empty cell two
    away; after a stone is picked, the empty cells two away from it."""
    rules, board, piece = game.rules, state.board, PIECE[state.player]
    _, adjacent, two_away = geometry(rules.side)
    if state.partial:
        return sorted(c for c in two_away[state.partial[0]] if board[c] == EMPTY)
    sources = [c for c in np.flatnonzero(board == piece) if not game.restricted or c in state.origins]
    clones = {c for s in sources for c in adjacent[s] if board[c] == EMPTY}
    return sorted(clones | {s for s in sources if any(board[c] == EMPTY for c in two_away[s])})


def send_it_options(game, state) -> list[int]:
    """Drops on empty cells that see a stone of the mover's along a row or column, whose group
    keeps a liberty after the captures and (with the group rule) holds no other drop of the turn;
    then PASS."""
    rules, board, piece = game.rules, state.board, PIECE[state.player]
    n, found = rules.n, []

    def group(b, cell):
        seen, todo, free = {cell}, [cell], False
        while todo:
            at = todo.pop()
            r, c = divmod(at, n)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < n and 0 <= cc < n:
                    other = rr * n + cc
                    free |= b[other] == EMPTY
                    if b[other] == b[cell] and other not in seen:
                        seen.add(other)
                        todo.append(other)
        return seen, free

    def sees(cell):
        r, c = divmod(cell, n)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            while 0 <= rr < n and 0 <= cc < n and board[rr * n + cc] == EMPTY:
                rr, cc = rr + dr, cc + dc
            if 0 <= rr < n and 0 <= cc < n and board[rr * n + cc] == piece:
                return True
        return False

    for cell in np.flatnonzero(board == EMPTY).tolist():
        if not sees(cell):
            continue
        trial = board.copy()
        trial[cell] = piece
        r, c = divmod(cell, n)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < n and 0 <= cc < n and trial[rr * n + cc] == 3 - piece:
                stones, free = group(trial, rr * n + cc)
                if not free:
                    trial[list(stones)] = EMPTY
        stones, free = group(trial, cell)
        if free and not (game.restricted and stones & set(state.placed)):
            found.append(cell)
    return found + ([game.PASS] if not state.partial else [])


OPTIONS = {"hexxagon": hexxagon_options, "hexxagon_1344": hexxagon_options, "send_it": send_it_options}


@pytest.mark.parametrize("name,params", CONFIGS, ids=IDS)
def test_rows_play_the_engines_games(name, params):
    """Along random games, row and engine state side by side: the row decodes to the engine's
    state, its legal actions are the engine's (and the plain reading's), and so are its seat,
    returns and planes; each action applied to both keeps them equal."""
    game = make_game(name, **params)
    compiled = game.compiled()
    assert game.compiled() is compiled  # made once
    out = np.empty(compiled.max_legal, np.int64)
    seen = {"picked": 0, "begun": 0, "end": 0}
    for seed in range(6):
        rng, state = np.random.default_rng(seed), game.initial_state()
        row = compiled.encode(state)
        while True:
            decoded = compiled.decode(row)
            assert decoded.key() == state.key() and decoded.result == state.result
            legal = game.legal_actions(state)
            assert out[: compiled_driver.legal_actions(compiled.context, row, out)].tolist() == legal
            assert to_play_row(compiled.context, row) == game.to_play(state)
            values = np.full(2, 9.0)
            returns_row(compiled.context, row, values)
            assert tuple(values) == game.returns(state)
            planes = np.full(game.info.obs_shape, 9.0, np.float32)
            rules.observe_row(compiled.context, row, planes)
            np.testing.assert_array_equal(planes, game.observe(state))
            if game.is_terminal(state):
                seen["end"] += 1
                break
            assert legal == OPTIONS[name](game, state)
            seen["picked"] += bool(state.partial)
            seen["begun"] += bool(state.placed)
            action = legal[int(rng.integers(len(legal)))]
            game.apply(state, action)
            apply_row(compiled.context, row, action)
    assert seen["end"] == 6 and (seen["begun"] > 0) == (game.schedule.most > 1)
    assert (seen["picked"] > 0) == name.startswith("hexxagon")


def play_both(game, texts: list[str]):
    """Play record turns on the engine and on a row side by side; the two equal after every action."""
    compiled, state = game.compiled(), game.initial_state()
    row = compiled.encode(state)
    for text in texts:
        for action in game.parse_turn(state, text):
            game.apply(state, action)
            apply_row(compiled.context, row, action)
            decoded = compiled.decode(row)
            assert decoded.key() == state.key() and decoded.result == state.result
    return state, row


def test_hand_made_turns_end_as_the_engines_do():
    """Hexxagon: a turn cut short when no stone of the turn's start can move; Send It: a capture,
    a turn stopped after a drop, two passes that end the game by area."""
    game = make_game("hexxagon", size=3, schedule="13", start="e1 b2 d2 / c1")
    state, row = play_both(game, ["g1", "c1a3"])  # o's one stone jumps: no stone left that may move
    assert state.player == 0 and state.turn == 2 and state.moves == 2
    game = make_game("send_it", size=5, start="a1 a2 c1 / b1 b3")
    state, row = play_both(game, ["b2", "c3", "pass", "pass"])  # o's turn stops after c3
    assert state.board[game.rules.parse_move("b1")[0]] == EMPTY  # taken by b2
    assert game.is_terminal(state) and state.passes == 2 and to_play_row(game.compiled().context, row) == TERMINAL


def search_both(game, config, states, kind: str, seed: int):
    """The reference search's and the driver's results (and generators after) with an estimator of
    ``kind``: uniform, random rollouts (one or three), the planes network on the rows' planes,
    or the same network over another game object (the driver decodes its leaves)."""
    outcomes = []
    for search in (ReferenceMCTS, MCTS):
        rng = np.random.default_rng(seed)
        estimator = {
            "uniform": lambda: UniformEstimator(game),
            "rollout": lambda: RolloutEstimator(game, np.random.default_rng(seed + 1)),
            "rollout x3": lambda: RolloutEstimator(game, np.random.default_rng(seed + 1), num_rollouts=3),
            "planes": lambda: PlanesNetwork(game, seed),
            "decoded": lambda: PlanesNetwork(make_game(game.info.name, **game.info.params), seed),
        }[kind]()
        with rows_only(game, kind == "planes" and search is MCTS):
            results = search(game, config).search_many(states, estimator, rng, seed % 2 == 1)
        after = [rng.bit_generator.state] + ([estimator.rng.bit_generator.state] if hasattr(estimator, "rng") else [])
        outcomes.append((results, after))
    return outcomes


@pytest.mark.parametrize("kind", ["uniform", "rollout", "rollout x3", "planes", "decoded"])
@pytest.mark.parametrize(
    "name,params", [CONFIGS[1], CONFIGS[3], CONFIGS[4], CONFIGS[5]], ids=[IDS[1], IDS[3], IDS[4], IDS[5]]
)
def test_the_driver_gives_the_reference_results(name, params, kind):
    game = make_game(name, **params)
    assert MCTS(game)._compiled is game.compiled()
    rng = np.random.default_rng(7)
    states = []
    for seed in range(4):  # the start, a jump or a turn begun, positions deep in a game
        state = game.initial_state()
        for _ in range(int(rng.integers(0, 40)) if seed else 0):
            legal = game.legal_actions(state)
            child = game.step(state, legal[int(rng.integers(len(legal)))])
            if game.is_terminal(child):
                break
            state = child
        states.append(state)
    for seed, state in enumerate(states):
        config = SearchConfig(
            num_simulations=int(rng.integers(8, 60)),
            fpu_reduction=0.1 * (seed % 3),
            gumbel=seed % 4 >= 2,
            gumbel_actions=int(rng.integers(1, 12)),
            playout_mix=0.5 if seed % 3 == 1 and kind in ("planes", "decoded") else 0.0,
        )
        assert_same(*search_both(game, config, [state], kind, seed))
    assert_same(*search_both(game, SearchConfig(num_simulations=40, gumbel=True), states, kind, 11))
