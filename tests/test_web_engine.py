"""The JSON-lines analysis engine (``evaluate.py mode=analyse``) on scripted queries: answers
equal the search's (and the solver's) own output for the same seed, bad queries get an error
line and the engine reads on, and stdout carries nothing but answers."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import envs
from agents.search.estimators import RolloutEstimator
from agents.search.mcts import MCTS, SearchConfig
from agents.search.solver import Solver
from agents.web.engine import Engine
from agents.web.players import PlayerSource
from envs.records import replay

ROOT = Path(__file__).resolve().parents[1]


def run(*queries) -> list[dict]:
    lines = "".join((q if isinstance(q, str) else json.dumps(q)) + "\n" for q in queries)
    answers = io.StringIO()
    Engine(PlayerSource()).run(io.StringIO(lines), answers)
    return [json.loads(line) for line in answers.getvalue().splitlines()]


def searched(name, params, turns, simulations, seed):
    game = envs.make_game(name, **params)
    state = game.initial_state()
    for state in replay(game, turns, state):
        pass
    rng = np.random.default_rng(seed)
    return (
        game,
        state,
        MCTS(game, SearchConfig(num_simulations=simulations)).search(state, RolloutEstimator(game, rng), rng),
    )


@pytest.mark.parametrize(
    "name, params, turns",
    [("nex", {"size": 5}, ["c3 b2", "d2 a1"]), ("odoku", {}, ["B Xc3", "A Oa1"]), ("gomoku", {"size": 7}, ["d4"])],
)
def test_answers_equal_the_searchs_own_output(name, params, turns):
    query = {"id": f"{name}-1", "game": name, "params": params, "moves": turns, "player": "mcts:64", "seed": 3}
    [answer] = run(query)
    game, state, result = searched(name, params, turns, 64, 3)
    assert answer["id"] == f"{name}-1" and answer["kind"] == "search" and answer["simulations"] == 64
    visited = np.flatnonzero(result.visit_counts) if game.is_chance(state) else game.legal_actions(state)
    assert {m["action"]: m["visits"] for m in answer["moves"]} == {int(a): int(result.visit_counts[a]) for a in visited}
    assert {m["action"]: m["prior"] for m in answer["moves"]} == {int(a): float(result.priors[a]) for a in visited}
    assert answer["values"] == [float(v) for v in result.root_values]
    assert answer["pv_actions"] == result.principal_variation
    position, words = state.copy(), []
    for action in result.principal_variation:
        words.append(game.action_to_text(position, action))
        game.apply(position, action)
    assert answer["pv"] == words and len(words) > 0
    shares = [m["share"] for m in answer["moves"]]
    assert sum(shares) == pytest.approx(1.0) and shares == sorted(shares, reverse=True)
    assert run(query) == [answer]  # the same seed, the same answer


def test_the_principal_variation_follows_the_most_visited_children():
    game, state, result = searched("hex", {"size": 3}, [], 300, 0)
    assert result.principal_variation[0] == int(np.argmax(result.visit_counts))
    child = game.step(state, result.principal_variation[0])
    assert game.to_play(child) == 1 and len(result.principal_variation) >= 2


def test_actions_stand_for_moves_and_the_budget_can_be_set():
    [by_moves, by_actions] = run(
        {"game": "hex", "params": {"size": 4}, "moves": ["b2"], "player": "mcts:10", "simulations": 30},
        {"game": "hex", "params": {"size": 4}, "actions": [5], "player": "mcts:10", "simulations": 30},
    )
    assert by_moves == by_actions and by_moves["simulations"] == 30 and by_moves["visits"] == 29


def test_the_solvers_answer_is_exact():
    [answer] = run({"id": 7, "game": "hex", "params": {"size": 3}, "moves": ["a1"], "player": "solver"})
    game = envs.make_game("hex", size=3)
    state = game.initial_state()
    game.apply(state, 0)
    solver = Solver(game)
    values = solver.action_values(state)  # seat 0's; the mover is seat 1
    assert answer["kind"] == "exact" and {m["action"]: m["value"] for m in answer["moves"]} == {
        a: -v for a, v in values.items()
    }
    assert answer["values"] == [solver.value(state), -solver.value(state)] == [-1.0, 1.0]  # a1 loses on 3x3
    assert answer["to_play"] == "Horizontal" and answer["value_text"].startswith("+1.00")


def test_bad_queries_get_an_error_line_and_the_engine_reads_on():
    answers = run(
        "not json",
        "[1, 2]",
        {"id": "g", "game": "chess"},
        {"id": "p", "game": "hex", "player": "bogus"},
        {"id": "m", "game": "hex", "params": {"size": 3}, "moves": ["a1", "a1"]},
        {"id": "a", "game": "hex", "params": {"size": 3}, "actions": [99]},
        {"id": "e", "game": "hex", "params": {"size": 2}, "moves": ["a1", "b1", "a2"]},
        {"id": "s", "game": "hex", "params": {"size": 3}, "seed": -1},
        {"id": "r", "game": "hex", "params": {"size": 3}, "player": "random"},
        {"id": "z", "game": "hex", "params": {"size": 3}, "player": "az:x.pt"},
        {"id": "ok", "game": "hex", "params": {"size": 3}, "player": "mcts:5"},
    )
    errors = [(a["id"], a.get("error", "")) for a in answers]
    assert errors[0][0] is None and errors[0][1].startswith("the query is not JSON")
    assert errors[1] == (None, "a query must be a JSON object")
    assert errors[2][1].startswith("unknown game 'chess'")
    assert errors[3][1].startswith("unknown player spec 'bogus'")
    assert errors[4] == ("m", "turn 2 'a1': a1: cell a1 is occupied")
    assert errors[5] == ("a", "action 99 is out of range 0..10")
    assert errors[6] == ("e", "the game is over: there is nothing to analyse")
    assert errors[7] == ("s", "seed must be an integer >= 0, got -1")
    assert "no search or values" in errors[8][1]
    assert "no checkpoint directory" in errors[9][1]
    assert errors[10] == ("ok", "") and answers[10]["visits"] == 4


def test_mode_analyse_keeps_stdout_for_the_answers(tmp_path):
    queries = [
        {"id": 1, "game": "nex", "params": {"size": 4}, "moves": ["a1 b2"], "player": "mcts:20"},
        {"id": 2, "game": "odoku", "player": "nonsense"},
    ]
    done = subprocess.run(
        [sys.executable, str(ROOT / "evaluate.py"), "mode=analyse", f"hydra.run.dir={tmp_path}"],
        input="".join(json.dumps(q) + "\n" for q in queries),
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, 2] and answers[0]["visits"] == 19 and "error" in answers[1]
    assert "answered 2 queries" in done.stderr and f"results in {tmp_path}" in done.stderr
    assert json.loads((tmp_path / "results.json").read_text())["queries"] == 2
