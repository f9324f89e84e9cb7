"""What an agent thinks of a position, as JSON-ready data: the browser's analysis overlay and
``evaluate.py mode=analyse`` (one JSON query a line in, one answer a line out, in the manner
of KataGo's analysis engine).

A player with a search (``mcts:N``, ``az:PATH[:SIMS]``) is searched once from the position
with the generator it is given (the same seed gives the same answer): per legal action its
visits, visit share, prior (the raw network's policy; uniform for ``mcts``) and mean value
per seat, the root's value per seat and the principal variation. The raw network
(``az:PATH:0``) gives its policy and value. The solver (tiny boards) gives each action's
exact value. Other players (``random``, ``greedy``, ``oracle``) have nothing to show.

:func:`thinking` is what a searching agent thought when it last moved: the same answer from
the search it played by (no search is run again), for the board to show beside every move.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from agents.players.az_player import NetworkPlayer
from agents.players.mcts_player import RolloutPlayer, SearchPlayer
from agents.players.player import Player
from agents.players.solver_player import SolverPlayer
from agents.search.mcts import MCTS
from agents.web.players import MAX_SIMULATIONS
from envs.core import CHANCE, TERMINAL, Game


class AnalysisError(ValueError):
    """A position or a player that cannot be analysed; the message says why."""


def analyse(game: Game, state, player: Player, rng: np.random.Generator, simulations: int | None = None) -> dict:
    """The analysis of ``state`` by ``player`` (``simulations`` overrides a search's budget)."""
    seat = game.to_play(state)
    if seat == TERMINAL:
        raise AnalysisError("the game is over: there is nothing to analyse")
    if simulations is not None and (
        isinstance(simulations, bool) or not isinstance(simulations, int) or not 1 <= simulations <= MAX_SIMULATIONS
    ):
        raise AnalysisError(f"simulations must be an integer from 1 to {MAX_SIMULATIONS}, got {simulations!r}")
    return _framed(game, seat, _analysis(game, state, player, rng, simulations))


def _framed(game: Game, seat: int, answer: dict) -> dict:
    """``answer`` with the seat to play and its value in the game's own units."""
    answer = {"to_play": _seat_name(game, seat)} | answer
    if seat >= 0:
        answer["value_text"] = game.value_text(answer["values"][seat], seat)
    return answer


def _analysis(game: Game, state, player: Player, rng, simulations: int | None) -> dict:
    seat = game.to_play(state)
    if isinstance(player, SearchPlayer):
        return _search(game, state, player, rng, simulations)
    if isinstance(player, NetworkPlayer) and seat != CHANCE:
        priors, values = player.estimator.estimate([state])
        moves = [_move(game, state, a, prior=priors[0][a]) for a in game.legal_actions(state)]
        moves.sort(key=lambda move: -move["prior"])
        return {"kind": "network", "values": _floats(values[0]), "moves": moves}
    if isinstance(player, SolverPlayer) and seat != CHANCE:
        solver = player.solver
        flip = -1.0 if seat == 1 else 1.0  # the solver's values are seat 0's; a move's is the mover's
        moves = [_move(game, state, a, value=flip * v) for a, v in solver.action_values(state).items()]
        moves.sort(key=lambda move: -move["value"])
        value = solver.value(state)
        return {"kind": "exact", "values": [value, -value], "moves": moves}
    raise AnalysisError(
        f"player {player.name!r} has no search or values to show here; analyse with mcts:N, az:PATH[:SIMS] or solver"
    )


def thinking(game: Game, state, player: Player) -> dict | None:
    """What ``player`` thought of ``state``, the position it has just acted in, by the search it
    played by: :func:`analyse`'s answer without the per-move table; None for a player without
    a search."""
    result = getattr(player, "last_search", None)
    if not isinstance(player, SearchPlayer) or result is None:
        return None
    answer = _search_answer(game, state, result, player.mcts.config)
    del answer["moves"]
    return _framed(game, game.to_play(state), answer)


def _search(game: Game, state, player: SearchPlayer, rng, simulations: int | None) -> dict:
    mcts = player.mcts
    if simulations is not None:
        mcts = MCTS(game, dataclasses.replace(mcts.config, num_simulations=simulations))
    if isinstance(player, RolloutPlayer):
        player.estimator.rng = rng  # as RolloutPlayer.act does: the rollouts draw from this generator
    return _search_answer(game, state, mcts.search(state, player.estimator, rng), mcts.config)


def _search_answer(game: Game, state, result, config) -> dict:
    total = result.visit_counts.sum()
    actions = np.flatnonzero(result.visit_counts > 0) if game.to_play(state) == CHANCE else game.legal_actions(state)
    moves = []
    for action in actions:
        visits = result.visit_counts[action]
        moves.append(
            _move(
                game,
                state,
                action,
                visits=int(visits),
                share=float(visits / total) if total else 0.0,
                prior=float(result.priors[action]),
                values=_floats(result.q_values[action]),
            )
        )
    moves.sort(key=lambda move: (-move["visits"], -move["prior"]))
    line, position = [], state.copy()
    for action in result.principal_variation:
        line.append(game.action_to_text(position, action))
        game.apply(position, action)
    return {
        "kind": "search",
        "simulations": config.num_simulations,
        "visits": int(total),
        "values": _floats(result.root_values),
        "moves": moves,
        "pv": line,
        "pv_actions": list(result.principal_variation),
    }


def _move(game: Game, state, action, **facts) -> dict:
    action = int(action)
    return {"action": action, "move": game.action_to_text(state, action)} | {
        key: float(value) if isinstance(value, (float, np.floating)) else value for key, value in facts.items()
    }


def _floats(values) -> list[float | None]:
    """Per-seat values as JSON numbers (None for a child never visited)."""
    return [None if math.isnan(v) else float(v) for v in np.asarray(values, dtype=float)]


def _seat_name(game: Game, seat: int) -> str:
    return "chance" if seat == CHANCE else game.info.seat_names[seat]
